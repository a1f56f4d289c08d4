import { EntryPromiseResponse } from '../../audit/entry-promise.response.dto';
import { ApiProperty } from '@nestjs/swagger';
import { TipSuccess } from '../tip-doc';
import { TipView } from '../tip.response.dto';

export class RecordTipResponse {
  @TipSuccess()
  success: true;

  @ApiProperty({ type: TipView, description: 'The tip as recorded, with its entry in the chain' })
  tip: TipView;

  @ApiProperty({
    type: EntryPromiseResponse,
    nullable: true,
    description:
      'The log’s signed promise of the tip’s entry, made at commit: keep it, and check it against any later tree head (`npm run verify-chain -- promise`). Null when checkpoint signing is off',
  })
  promise: EntryPromiseResponse | null;
}
