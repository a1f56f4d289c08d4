import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { AppConfig } from '../../platform/config/config';
import { LogOrigin } from '../../platform/event-store/log-origin';
import { cosignerKey, verifierKey, policyCosignatures, type PolicyWitness, type TlogPolicy } from '@crcs/tlog';
import { CheckpointNotes } from '../checkpoint-notes';
import { Cosignatures } from '../cosignatures';
import { signingKey } from '../signing-key';
import { WitnessingQuery } from './witnessing.query';
import type { WitnessingPolicy, WitnessingResponse } from './witnessing.response.dto';

/**
 * What an auditor checks by hand with `verify-chain checkpoint --policy`, as the service sees it:
 * the latest checkpoint as served (only cosignatures that verify), each witness of the policy, and
 * the quorum counted by the same function the verifier counts it with.
 */
@QueryHandler(WitnessingQuery)
export class WitnessingHandler implements IQueryHandler<WitnessingQuery, WitnessingResponse> {
  constructor(
    private readonly config: AppConfig,
    private readonly origin: LogOrigin,
    private readonly notes: CheckpointNotes,
    private readonly cosignatures: Cosignatures,
  ) {}

  async execute(): Promise<WitnessingResponse> {
    const key = signingKey(this.config);
    const head = await this.notes.latest();
    const checkpoint = head && {
      tree_size: head.tree_size,
      root_hash: head.root_hash,
      signed_at: head.timestamp,
      note: await this.cosignatures.cosignedNote(head),
    };
    const policy = this.config.logPolicy;
    return {
      origin: this.origin.name,
      vkey: verifierKey(this.origin.name, key),
      checkpoint: checkpoint ?? null,
      policy: policy ? await this.policyState(policy, checkpoint?.note) : null,
    };
  }

  private async policyState(policy: TlogPolicy, note: string | undefined): Promise<WitnessingPolicy> {
    const { cosigned, met } = note
      ? policyCosignatures(note, policy)
      : { cosigned: new Map<PolicyWitness, number>(), met: false };
    return {
      quorum: policy.quorum,
      groups: [...policy.groups].map(([name, { threshold, members }]) => ({ name, threshold, members })),
      quorum_met: met,
      witnesses: await Promise.all(
        policy.witnesses.map(async (witness) => {
          const vkey = cosignerKey(witness.key.name, witness.key.key);
          const at = cosigned.get(witness);
          return {
            name: witness.name,
            vkey,
            url: witness.url ?? null,
            cosigned_at: at === undefined ? null : new Date(at * 1000).toISOString(),
            last_cosigned_size: (await this.cosignatures.lastCosigned(vkey)) ?? null,
          };
        }),
      ),
    };
  }
}
