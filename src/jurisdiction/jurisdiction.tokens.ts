/**
 * Injection token for the checked seed data, loaded once at start: the ZIPs and rules as the files
 * hold them, and the tip-wage rows as the log holds them (TIP_WAGE_RULES).
 */
export const SEED_DATA = Symbol('SEED_DATA');

/** The seed files as read and checked at start: what the rule import compares with the log. */
export const SEED_FILES_READ = Symbol('SEED_FILES_READ');

/** The tip-wage rows of the log, filled by JurisdictionRuleSync once it has imported the seed files, before the first request. */
export const TIP_WAGE_RULES = Symbol('TIP_WAGE_RULES');
