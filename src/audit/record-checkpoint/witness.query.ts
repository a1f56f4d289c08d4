import { Query } from '@nestjs/cqrs';

/** The witness file's text, as the signer wrote it. */
export class WitnessQuery extends Query<string> {}
