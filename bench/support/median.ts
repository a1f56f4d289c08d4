/** The median item by `value` (the lower of the two middle ones for an even count). */
export function median<T>(items: T[], value: (item: T) => number): T {
  return [...items].sort((a, b) => value(a) - value(b))[Math.floor((items.length - 1) / 2)];
}
