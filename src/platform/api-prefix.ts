/** Every API route is under it; an answer that points at another route (a sale's rule summary) writes it too. */
export const API_PREFIX = 'api/v1';
