/**
 * Why the signer would not sign: what it found, where. `witness`: its own state, the witness file,
 * is not as it left it. `refused`: a witness of the policy refused its checkpoint.
 */
export interface SignerAlarm {
  kind: 'modified' | 'deleted' | 'unauthenticated' | 'witness' | 'refused';
  position: number;
  detail: string;
  missing_positions?: { from: number; to: number };
}

/** Thrown by any of the signer's checks: the signer raises its alarm and signs nothing more. */
export class SigningRefused extends Error {
  constructor(readonly alarm: SignerAlarm) {
    super(alarm.detail);
  }
}
