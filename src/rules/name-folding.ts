/**
 * Place names arrive as callers type them ("st louis", "Saint Louis County", "Mayaguez")
 * and sit in the seeds as the Census or USPS spell them ("St. Louis", "Mayagüez").
 * Folding both sides to one key lets them meet; keys are for matching, never for display.
 */

const ABBREVIATIONS: Readonly<Record<string, string>> = { st: 'saint', ste: 'sainte', ft: 'fort', mt: 'mount' };

/**
 * Type words the Census puts after a county name; the ZIP seed drops them (ZIP-SOURCES.md).
 * The lowercase " city" of independent cities is kept on purpose: "Baltimore city" and
 * Baltimore County are different places.
 */
const COUNTY_TYPE_WORDS = [
  ['city', 'and', 'borough'],
  ['census', 'area'],
  ['county'],
  ['parish'],
  ['borough'],
  ['municipality'],
  ['municipio'],
  ['district'],
  ['island'],
];

function words(name: string): string[] {
  return name
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[’']/g, '')
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 0)
    .map((word) => ABBREVIATIONS[word] ?? word);
}

function endsWith(list: string[], suffix: string[]): boolean {
  return list.length > suffix.length && suffix.every((word, i) => list[list.length - suffix.length + i] === word);
}

/** Spaces are dropped too, so "O'Fallon", "O Fallon" and "DeKalb", "De Kalb" meet. */
export function foldCityName(name: string): string {
  return words(name).join('');
}

/** Strips type words until none is left, so "Kodiak Island Borough" meets the seed's "Kodiak Island". */
export function foldCountyName(name: string): string {
  let list = words(name);
  for (let typeWords = findTypeWords(list); typeWords; typeWords = findTypeWords(list)) {
    list = list.slice(0, list.length - typeWords.length);
  }
  return list.join('');
}

function findTypeWords(list: string[]): string[] | undefined {
  return COUNTY_TYPE_WORDS.find((suffix) => endsWith(list, suffix));
}
