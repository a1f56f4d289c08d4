import { TipAnalyticsScope } from '../tip-fields';

export class TipWageTheftRequest extends TipAnalyticsScope {}
