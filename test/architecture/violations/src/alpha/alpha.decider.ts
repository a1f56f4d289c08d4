import { DoOneRequest } from './do-one/do-one.request.dto';

/** Breaks domain-files-name-dtos-as-types: a value import loads the DTO with the decider (`import type` would not). */
export const decide = (request: unknown): boolean => request instanceof DoOneRequest;
