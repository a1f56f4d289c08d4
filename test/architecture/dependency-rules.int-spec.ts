import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

/**
 * Each of the layout's rules (.dependency-cruiser.cjs) fails on a deliberate violation: violations/src
 * and violations/packages/tlog/src hold one file per broken rule, and one import that is allowed. That the rules hold over src/ is
 * `npm run lint:deps`, the same cruiser as a command.
 */
const ROOT = join(__dirname, '../..');
const CLI = join(ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');
const CONFIG = join(ROOT, '.dependency-cruiser.cjs');

interface Violation {
  from: string;
  to: string;
  rule: { name: string };
}

function cruise(cwd: string): Violation[] {
  const args = [CLI, 'src', 'packages/tlog/src', '--config', CONFIG, '--output-type', 'json'];
  const out = execFileSync(process.execPath, args, { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return (JSON.parse(out) as { summary: { violations: Violation[] } }).summary.violations;
}

describe('dependency rules', () => {
  it('each fail on its deliberate violation, and on nothing else', () => {
    const found = cruise(join(__dirname, 'violations'))
      .map((v) => `${v.rule.name}: ${v.from} -> ${v.to.replace(/^.*node_modules\//, 'node_modules/')}`)
      .sort();
    expect(found).toEqual(
      [
        'domain-files-import-no-framework: src/alpha/alpha.events.ts -> node_modules/@nestjs/swagger/dist/index.js',
        'domain-files-name-dtos-as-types: src/alpha/alpha.decider.ts -> src/alpha/do-one/do-one.request.dto.ts',
        'use-cases-import-no-sibling: src/alpha/do-one/do-one.ts -> src/alpha/do-two/do-two.ts',
        'event-store-knows-no-verification: src/platform/event-store/reads-the-verifier.ts -> src/platform/verification/verifier.ts',
        'feature-reaches-no-other-features-use-case: src/alpha/reads-beta-internals.ts -> src/beta/do-it/do-it.handler.ts',
        'no-circular: src/alpha/cycle-one.ts -> src/alpha/cycle-two.ts',
        'no-feature-barrel: src/beta/index.ts -> src/beta/beta.events.ts',
        'platform-imports-no-feature: src/platform/reads-a-feature.ts -> src/alpha/alpha.ts',
        'projectors-write-the-primary: src/alpha/read-model/alpha.projector.ts -> src/platform/read-replica/replica.ts',
        'rules-import-only-rules-and-platform: src/rules/imports-a-feature.ts -> src/beta/beta.events.ts',
        'rules-stay-pure: src/rules/imports-nest.ts -> node_modules/@nestjs/common/index.js',
        'rules-stay-pure: src/rules/reaches-swagger.ts -> node_modules/@nestjs/swagger/dist/index.js',
        'log-package-stands-alone: packages/tlog/src/reads-the-service.ts -> src/alpha/alpha.ts',
        'log-package-stands-alone: packages/tlog/src/imports-nest.ts -> node_modules/@nestjs/common/index.js',
        'service-imports-the-log-package-by-name: src/alpha/reads-the-log-sources.ts -> packages/tlog/src/leaf.ts',
      ].sort(),
    );
  });
});
