// Breaks no-feature-barrel: a feature's barrel, re-exporting its files.
export { BETA } from './beta.events';
