import { describeLayout } from './layout-suite';

describeLayout('laptop');
