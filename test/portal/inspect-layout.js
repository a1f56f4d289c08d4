// Runs in the page, by test/portal/layout.ts: one function expression, everything it uses inside it.
// The checks are described there.
function inspect(minFontPx) {
  const problems = [];
  const windowWidth = document.documentElement.clientWidth;
  const snippet = (text) => text.replace(/\s+/g, ' ').trim().slice(0, 60);
  const name = (element) =>
    `<${element.tagName.toLowerCase()}${element.classList.length ? `.${[...element.classList].join('.')}` : ''}> "${snippet(element.textContent ?? '')}"`;
  const shown = (element) => element.checkVisibility();
  const inSvg = (element) => element instanceof SVGElement && !(element instanceof SVGSVGElement);

  // Wider than the window, or scrolling sideways inside it. A form control scrolls its own value, and
  // an abbreviation clipped with an ellipsis is allowed when it carries the whole value as its title.
  if (document.documentElement.scrollWidth > windowWidth) {
    problems.push(`the page is ${document.documentElement.scrollWidth} px wide in a ${windowWidth} px window`);
  }
  for (const element of document.body.querySelectorAll('*')) {
    if (!shown(element) || inSvg(element) || element.matches('input, select, textarea, option')) continue;
    const box = element.getBoundingClientRect();
    // Hidden from sight but read out (a live region for screen readers).
    if (box.width <= 1 && box.height <= 1) continue;
    if (box.width > 0 && box.right > windowWidth + 1)
      problems.push(`${name(element)} reaches ${Math.round(box.right)} px in a ${windowWidth} px window`);
    const style = getComputedStyle(element);
    if (style.overflowX === 'visible' || element.scrollWidth <= element.clientWidth + 1) continue;
    if (style.textOverflow === 'ellipsis' && element.getAttribute('title')) continue;
    const widest = [...element.querySelectorAll('*')].reduce(
      (found, inner) =>
        inner.getBoundingClientRect().right > (found?.getBoundingClientRect().right ?? -Infinity) ? inner : found,
      undefined,
    );
    problems.push(
      `${name(element)} scrolls or clips sideways: ${element.scrollWidth} px of content in ${element.clientWidth} px, the widest ${widest ? name(widest) : 'its own text'}`,
    );
  }

  // A select draws only what fits of its choice, cut anywhere: it must be as wide as its longest choice.
  for (const control of document.body.querySelectorAll('select')) {
    if (!shown(control)) continue;
    const natural = control.cloneNode(true);
    natural.removeAttribute('id');
    Object.assign(natural.style, {
      position: 'absolute',
      visibility: 'hidden',
      width: 'auto',
      minWidth: '0',
      maxWidth: 'none',
    });
    control.parentElement.append(natural);
    const needs = natural.getBoundingClientRect().width;
    natural.remove();
    const has = control.getBoundingClientRect().width;
    if (needs > has + 1)
      problems.push(
        `${name(control)} cuts its text: its longest choice needs ${Math.round(needs)} px, it has ${Math.round(has)} px`,
      );
  }

  // Mid-word breaks: each character's line, from a Range over it, against the places a line may break.
  // The places words() in the portal's dom.js lets an address break are among them (after ? & = @).
  const BREAKS_AFTER = /[\s\-_/.,:;…–—)\]}|?&=@]/;
  const BREAKS_BEFORE = /[\s([{]/;
  const CELLS = 'th, td, caption, dt, dd';
  const range = document.createRange();
  for (const cell of document.querySelectorAll(CELLS)) {
    if (!shown(cell)) continue;
    const chars = [];
    const walk = (node) => {
      if (node instanceof Text) {
        range.selectNodeContents(node);
        const lines = range.getClientRects();
        for (let i = 0; i < node.data.length; i++) {
          // A text on one line breaks nowhere inside: only one on several lines needs a box per character.
          if (lines.length > 1) {
            range.setStart(node, i);
            range.setEnd(node, i + 1);
          }
          const [rect] = lines.length > 1 ? range.getClientRects() : lines;
          // Collapsed white space has no box, and is a place to break all the same.
          chars.push(
            rect && rect.width > 0 && !/\s/.test(node.data[i])
              ? { char: node.data[i], top: rect.top, bottom: rect.bottom }
              : 'boundary',
          );
        }
        return;
      }
      if (!(node instanceof Element)) return;
      // A nested cell is checked on its own; what is not drawn as text has no line to break.
      if ((node !== cell && node.matches(CELLS)) || node.matches('svg, select, script, style, template'))
        return void chars.push('boundary');
      const display = getComputedStyle(node).display;
      if (display === 'none') return;
      // A line may end at a <br>, around a block, and around an inline box (a badge, a button).
      const own = node.tagName === 'BR' || (display !== 'inline' && display !== 'contents');
      if (own) chars.push('boundary');
      node.childNodes.forEach(walk);
      if (own) chars.push('boundary');
    };
    cell.childNodes.forEach(walk);
    let previous;
    let boundary = false;
    const broken = [];
    const text = (from, to) =>
      chars
        .slice(Math.max(0, from), to)
        .map((c) => (c === 'boundary' ? ' ' : c.char))
        .join('');
    const wordAround = (index) => {
      let from = index;
      let to = index;
      while (from > 0 && chars[from - 1] !== 'boundary') from--;
      while (to < chars.length && chars[to] !== 'boundary') to++;
      return { word: text(from, to), at: index - from };
    };
    // Separators that still join one word: those inside a date or an instant (2026-04-|17), and the dots of a
    // dotted name (transaction.|voided) that is no address or path.
    const joins = (index) => {
      const { word, at } = wordAround(index);
      for (const date of word.matchAll(/\d{4}-\d{2}-\d{2}(T[\d:.]+Z?)?/g))
        if (date.index < at && at < date.index + date[0].length) return true;
      return /\w\.[a-z_]/i.test(word.slice(at - 2, at + 1)) && !word.includes('/');
    };
    chars.forEach((item, index) => {
      if (item === 'boundary') return void (boundary = true);
      const newLine = previous && item.top >= previous.top + (previous.bottom - previous.top) / 2;
      if (
        newLine &&
        !boundary &&
        (joins(index) || (!BREAKS_AFTER.test(previous.char) && !BREAKS_BEFORE.test(item.char)))
      ) {
        broken.push(`"${snippet(text(index - 12, index))}|${snippet(text(index, index + 12))}"`);
      }
      previous = item;
      boundary = false;
    });
    if (broken.length)
      problems.push(
        `${broken.length === 1 ? 'a word breaks' : `${broken.length} words break`} across lines in ${name(cell)}: ${broken.slice(0, 3).join(', ')}`,
      );
  }

  // Text too small to read, in HTML or scaled down with an SVG picture.
  const small = new Set();
  for (const element of document.body.querySelectorAll('*')) {
    if (!shown(element) || ![...element.childNodes].some((child) => child instanceof Text && child.data.trim()))
      continue;
    const scale = element instanceof SVGGraphicsElement ? (element.getScreenCTM()?.a ?? 1) : 1;
    const size = parseFloat(getComputedStyle(element).fontSize) * scale;
    if (size < minFontPx - 0.05) small.add(`${name(element)} is drawn at ${size.toFixed(1)} px, under ${minFontPx} px`);
  }
  problems.push(...small);

  // Text and controls drawn over each other: every line of text and every control, each clipped by its
  // clipping ancestors, against the others that are not its own ancestors or descendants.
  const clips = new Map();
  const clipOf = (element) => {
    if (!element || element === document.body) return null;
    if (!clips.has(element)) {
      const parent = clipOf(element.parentElement);
      const own = getComputedStyle(element).overflowX !== 'visible' ? element.getBoundingClientRect() : null;
      clips.set(element, own && parent ? intersect(own, parent) : (own ?? parent));
    }
    return clips.get(element);
  };
  const intersect = (a, b) => ({
    left: Math.max(a.left, b.left),
    top: Math.max(a.top, b.top),
    right: Math.min(a.right, b.right),
    bottom: Math.min(a.bottom, b.bottom),
  });
  const boxes = [];
  const add = (owner, rect, clipFrom) => {
    const clip = clipOf(clipFrom);
    const area = clip ? intersect(rect, clip) : rect;
    if (area.right - area.left > 0 && area.bottom - area.top > 0)
      boxes.push({ owner, left: area.left, top: area.top, right: area.right, bottom: area.bottom });
  };
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const owner = node.parentElement;
    if (!node.data.trim() || !shown(owner) || owner.closest('svg, select, script, style, template')) continue;
    range.selectNodeContents(node);
    for (const rect of range.getClientRects()) add(owner, rect, owner);
  }
  for (const control of document.body.querySelectorAll('button, input:not([type="hidden"]), select, textarea')) {
    if (shown(control)) add(control, control.getBoundingClientRect(), control.parentElement);
  }
  boxes.sort((a, b) => a.top - b.top);
  const TOLERANCE = 2;
  boxes.forEach((a, i) => {
    for (let j = i + 1; j < boxes.length && boxes[j].top < a.bottom - TOLERANCE; j++) {
      const b = boxes[j];
      if (a.owner.contains(b.owner) || b.owner.contains(a.owner)) continue;
      if (Math.min(a.right, b.right) - Math.max(a.left, b.left) > TOLERANCE) {
        problems.push(`${name(a.owner)} and ${name(b.owner)} are drawn over each other`);
      }
    }
  });

  // A chart of whole numbers (counts) read against ticks between them: the bars' values are in their titles.
  for (const chart of document.querySelectorAll('svg')) {
    const bars = [...chart.querySelectorAll('rect > title')].map((title) =>
      Number(title.textContent.split(': ').at(-1)),
    );
    const ticks = [...chart.querySelectorAll('text[text-anchor="end"]')].map((tick) => tick.textContent);
    const fractional = ticks.filter((tick) => !Number.isInteger(parseFloat(tick) * (tick.endsWith('k') ? 1000 : 1)));
    if (bars.length > 0 && bars.every(Number.isInteger) && fractional.length > 0)
      problems.push(`a chart of counts has the ticks ${fractional.join(', ')}: ${snippet(chart.textContent)}`);
  }

  // Values that were never there.
  const missing = /\bundefined\b|\bNaN\b|\[object \w+\]/;
  for (const line of document.body.innerText.split('\n'))
    if (missing.test(line)) problems.push(`the page shows "${snippet(line)}"`);
  for (const element of document.body.querySelectorAll('[title], [aria-label], [placeholder], [alt]')) {
    for (const attribute of ['title', 'aria-label', 'placeholder', 'alt']) {
      const value = element.getAttribute(attribute);
      if (value && missing.test(value)) problems.push(`${name(element)} has ${attribute} "${snippet(value)}"`);
    }
  }
  return [...new Set(problems)];
}
