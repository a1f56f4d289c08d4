import type { Projector } from './projector';

/** Every read model of the service, in one place: the store, the async runner and the rebuild script read this list. */
export const PROJECTORS: readonly Projector[] = [];
