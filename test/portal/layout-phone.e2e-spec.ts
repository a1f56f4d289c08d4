import { describeLayout } from './layout-suite';

describeLayout('phone');
