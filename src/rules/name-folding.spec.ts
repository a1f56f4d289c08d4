import { loadSeeds } from '../jurisdiction/seed-loader';
import { foldCityName, foldCountyName } from './name-folding';

describe('name folding', () => {
  it.each([
    ['Mayagüez', 'Mayaguez'],
    ['Doña Ana', 'DONA ANA'],
    ['Añasco Municipio', 'Anasco'],
  ])('folds accents and case: %s = %s', (a, b) => {
    expect(foldCountyName(a)).toBe(foldCountyName(b));
  });

  it.each([
    ['St. Louis', 'Saint Louis'],
    ['St Louis', 'saint louis'],
    ['Ste. Genevieve', 'Sainte Genevieve'],
    ["St. Mary's", 'Saint Marys'],
  ])('folds St./St/Saint: %s = %s', (a, b) => {
    expect(foldCountyName(a)).toBe(foldCountyName(b));
  });

  it.each([
    ['Los Angeles County', 'Los Angeles'],
    ['Orleans Parish', 'Orleans'],
    ['Kodiak Island Borough', 'Kodiak Island'],
    ['Juneau City and Borough', 'Juneau'],
    ['Bethel Census Area', 'Bethel'],
    ['Anchorage Municipality', 'Anchorage'],
    ['Western District', 'Western'],
    ['St. Thomas Island', 'St. Thomas'],
    ['St. Louis County', 'Saint Louis'],
  ])('drops the county type word: %s = %s', (a, b) => {
    expect(foldCountyName(a)).toBe(foldCountyName(b));
  });

  it('keeps an independent city apart from the county of the same name', () => {
    expect(foldCountyName('Baltimore city')).not.toBe(foldCountyName('Baltimore County'));
    expect(foldCountyName('St. Louis city')).not.toBe(foldCountyName('St. Louis County'));
  });

  it('does not strip a type word that is the whole name', () => {
    expect(foldCountyName('County')).toBe('county');
  });

  it.each([
    ["O'Fallon", 'O Fallon'],
    ['Coeur d’Alene', 'Coeur D Alene'],
    ['  Winston-Salem ', 'winston salem'],
    ['McLean', 'Mc Lean'],
    ['Ft. Lauderdale', 'Fort Lauderdale'],
    ['Mt. Vernon', 'Mount Vernon'],
  ])('folds punctuation, spaces and abbreviations in cities: %s = %s', (a, b) => {
    expect(foldCityName(a)).toBe(foldCityName(b));
  });

  it('keeps a city type word, which is part of its name', () => {
    expect(foldCityName('Staten Island')).not.toBe(foldCityName('Staten'));
  });

  it('never merges two counties of one state in the ZIP data', () => {
    const fipsByKey = new Map<string, Set<string>>();
    for (const { state, county_fips: countyFips, county } of loadSeeds().zips.values()) {
      const key = `${state}|${foldCountyName(county)}`;
      fipsByKey.set(key, (fipsByKey.get(key) ?? new Set()).add(countyFips));
    }
    expect([...fipsByKey].filter(([, fips]) => fips.size > 1)).toEqual([]);
    expect(fipsByKey.size).toBe(3211);
  });
});
