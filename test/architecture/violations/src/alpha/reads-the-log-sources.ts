// Breaks service-imports-the-log-package-by-name: a path into the package's sources.
export { LEAF } from '../../packages/tlog/src/leaf';
