/**
 * How many HTTP requests this process has taken (counted by the app's onRequest hook). Work that
 * can wait, a verification inside the service, compares the count before and after a stretch of
 * its own to know whether clients were being served meanwhile, without knowing of any route.
 */
let taken = 0;

export function requestTaken(): void {
  taken += 1;
}

export function requestsTaken(): number {
  return taken;
}
