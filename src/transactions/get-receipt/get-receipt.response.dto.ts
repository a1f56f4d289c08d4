import { ApiProperty } from '@nestjs/swagger';
import { EntryPromiseResponse } from '../../audit/entry-promise.response.dto';
import { InclusionProofResponse, TreeHeadResponse } from '../../audit/tree-proofs.response.dto';
import { DISCLOSURE_KINDS, type DisclosureKind } from '../../rules/jurisdiction-rule';
import { TRANSACTION_ID_EXAMPLE } from '../transaction.request.dto';
import { TRANSACTION_STATES, TRANSACTION_TYPES } from '../transaction.events';
import { TransactionDetail, type TransactionView } from '../transaction.response.dto';

/** `jurisdiction`: the rule's own wording; `default`: ours, where the rule prescribes none. */
export const DISCLOSURE_SOURCES = ['jurisdiction', 'default'] as const;

const DISCLOSURE_EXAMPLE =
  'Cash totals are rounded to the nearest 5 cents, as required by state law in AZ. Card, EBT and mobile payments are never rounded.';

export class Disclosure {
  @ApiProperty({ description: 'The disclosure sentence for the customer', example: DISCLOSURE_EXAMPLE })
  text: string;

  /** `jurisdiction`: the rule's own wording; `default`: ours, where the rule prescribes none. */
  @ApiProperty({
    enum: DISCLOSURE_SOURCES,
    description: "`jurisdiction`: the rule's own wording; `default`: the service's, where the rule prescribes none",
    example: 'default',
  })
  source: (typeof DISCLOSURE_SOURCES)[number];

  /** Whether the rule obliges the merchant to disclose its rounding. */
  @ApiProperty({ description: 'Whether the rule obliges the merchant to disclose its rounding', example: true })
  required: boolean;

  @ApiProperty({
    enum: DISCLOSURE_KINDS,
    description:
      'Where the law wants the customer told: on the `receipt` (this text), on a `sign` at the register, `pre_charge` (before the customer pays: the POS shows it first), or `none` required. The receipt carries the sentence in every case',
    example: 'receipt',
  })
  kind: DisclosureKind;

  @ApiProperty({
    description: 'The law wants the receipt itemized: subtotal, the rounding adjustment (even of $0.00) and the total',
    example: false,
  })
  itemized: boolean;

  @ApiProperty({ example: 'US-AZ' })
  jurisdiction_id: string;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description: "The rule's legislation, for the merchant; null where there is none",
    example: 'SB 1108 (2026)',
  })
  legislation: string | null;
}

export class MerchantReceipt {
  @ApiProperty({ example: TRANSACTION_ID_EXAMPLE })
  transaction_id: string;

  @ApiProperty({ enum: TRANSACTION_TYPES, example: 'SALE' })
  type: TransactionView['type'];

  @ApiProperty({ enum: TRANSACTION_STATES, example: 'completed' })
  state: TransactionView['state'];

  @ApiProperty({ format: 'date-time', example: '2026-11-21T09:30:12.345Z' })
  created_at: string;

  @ApiProperty({ type: Disclosure })
  disclosure: Disclosure;

  /** The customer-facing receipt, one line per row. */
  @ApiProperty({
    description: 'The customer-facing receipt, one line per row (separated by `\\n`), ending with the disclosure',
    example: [
      'SALE TXN-2026-11-21-8F3K2Q7M',
      '2026-11-21T09:30:12.345Z',
      'Store store-12  Terminal lane-3',
      'Subtotal                        $10.00',
      'Tax                              $0.77',
      'Total                           $10.77',
      'Cash                            $10.77',
      'Cash rounding                   -$0.02',
      'Cash total                      $10.75',
      '',
      DISCLOSURE_EXAMPLE,
    ].join('\n'),
  })
  text: string;
}

/** Raw cent values only, for a point-of-sale system to print in its own layout. */
export class PosReceipt {
  @ApiProperty({ example: TRANSACTION_ID_EXAMPLE })
  transaction_id: string;

  @ApiProperty({ type: 'integer', example: 1000 })
  subtotal_cents: number;

  @ApiProperty({ type: 'integer', example: 77 })
  tax_total_cents: number;

  @ApiProperty({ type: 'integer', example: 1077 })
  ledger_total_cents: number;

  @ApiProperty({
    type: 'integer',
    description: "The cash total that settles the transaction (an override's, if any)",
    example: 1075,
  })
  cash_total_cents: number;

  @ApiProperty({ type: 'integer', example: -2 })
  rounding_delta_cents: number;
}

export class MerchantReceiptResponse {
  @ApiProperty({ type: 'boolean', enum: [true], example: true })
  success: true;

  @ApiProperty({ enum: ['merchant'], example: 'merchant' })
  format: 'merchant';

  @ApiProperty({ type: MerchantReceipt })
  receipt: MerchantReceipt;
}

export class AuditReceiptResponse {
  @ApiProperty({ type: 'boolean', enum: [true], example: true })
  success: true;

  @ApiProperty({ enum: ['audit'], example: 'audit' })
  format: 'audit';

  @ApiProperty({
    type: TransactionDetail,
    description: 'The full record: chain position, audit hash, fraud score and its entries in the chain',
  })
  receipt: TransactionDetail;

  @ApiProperty({
    type: TreeHeadResponse,
    description:
      'The tree head `inclusion_proof` leads to: keep it with the proof (`npm run verify-chain -- inclusion`)',
  })
  tree_head: TreeHeadResponse;

  @ApiProperty({
    type: InclusionProofResponse,
    description: 'RFC 9162 inclusion proof of the record’s entry (`chain_position`) in the tree of `tree_head`',
  })
  inclusion_proof: InclusionProofResponse;

  @ApiProperty({
    type: EntryPromiseResponse,
    nullable: true,
    description:
      'The log’s signed promise of the record’s entry, the very one its write answered with: check it against any later tree head ' +
      '(`npm run verify-chain -- promise`). Null when signing is off, or for an entry written before writer authentication',
  })
  promise: EntryPromiseResponse | null;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description:
      'The same inclusion in the standard format, c2sp.org/tlog-proof@v1: the leaf index, the path, and the log’s checkpoint as a signed note. ' +
      'Save it as `<id>.tlog-proof` and check it offline with the log’s verifier key (`GET /log/vkey`) and the record’s `auditHash`: ' +
      '`npm run verify-chain -- tlog-proof`, or any tlog implementation. Null while the entry is newer than the latest signed checkpoint ' +
      '(one follows within `CHECKPOINT_MAX_AGE_S`) or when signing is off',
    example: 'c2sp.org/tlog-proof@v1\nindex 1203\n…\n\nexample.com/crcs\n2000\n…\n\n— example.com/crcs …\n',
  })
  tlog_proof: string | null;
}

export class PosReceiptResponse {
  @ApiProperty({ type: 'boolean', enum: [true], example: true })
  success: true;

  @ApiProperty({ enum: ['pos'], example: 'pos' })
  format: 'pos';

  @ApiProperty({ type: PosReceipt })
  receipt: PosReceipt;
}
