// Breaks log-package-stands-alone: the log package reaches into the service.
export { ALPHA } from '../../../src/alpha/alpha';
