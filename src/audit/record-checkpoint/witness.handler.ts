import { HttpStatus } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { DomainError } from '../../platform/errors/domain-error';
import { ChainAlarms } from '../chain-alarms';
import { NOT_CONFIGURED } from '../signing-key';
import { Witness, WitnessStateError } from '../witness';
import { WitnessQuery } from './witness.query';

/** Reads the witness file as stored, never rebuilt from the database; a file that cannot be served raises the chain alarm. */
@QueryHandler(WitnessQuery)
export class WitnessHandler implements IQueryHandler<WitnessQuery, string> {
  constructor(
    private readonly witness: Witness,
    private readonly alarms: ChainAlarms,
  ) {}

  async execute(): Promise<string> {
    if (!this.witness.configured) throw new DomainError('NOT_FOUND', NOT_CONFIGURED, HttpStatus.NOT_FOUND);
    try {
      return await this.witness.text();
    } catch (error) {
      if (!(error instanceof WitnessStateError)) throw error;
      await this.alarms.raise({ source: 'witness', kind: 'witness', position: null, detail: error.message });
      throw new DomainError(
        'CHAIN_ALARM',
        `The witness file cannot be served: ${error.message}`,
        HttpStatus.SERVICE_UNAVAILABLE,
      );
    }
  }
}
