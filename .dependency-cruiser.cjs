/**
 * Import boundaries, checked by `npm run lint` (docs/architecture.md, "Boundaries").
 * A rule's `from.path` captures the module or feature; `$1` in `to` refers to it.
 */
module.exports = {
  forbidden: [
    {
      name: 'app-registers-plugins',
      severity: 'error',
      comment:
        'app.ts builds the platform and registers the modules: it imports a module only through its ' +
        'plugin.ts (ADR 0021), besides platform/, db/ and config.ts.',
      from: { path: '^server/src/app[.]ts$' },
      to: {
        path: '^server/src/',
        pathNot: [
          '^server/src/modules/[^/]+/plugin[.]ts$',
          '^server/src/(platform|db)/',
          '^server/src/config[.]ts$',
        ],
      },
    },
    {
      name: 'server-module-internals',
      severity: 'error',
      comment:
        "A server module uses another module only through that module's entry file (service.ts); " +
        'shared pieces belong in platform/ or db/.',
      from: { path: '^server/src/modules/([^/]+)/' },
      to: {
        path: '^server/src/modules/',
        pathNot: ['^server/src/modules/$1/', '^server/src/modules/[^/]+/service[.]ts$'],
      },
    },
    {
      name: 'routes-through-services',
      severity: 'error',
      comment: 'Route files call services; services call repos.',
      from: { path: 'routes[.]ts$' },
      to: { path: 'repo[.]ts$' },
    },
    {
      name: 'platform-below-modules',
      severity: 'error',
      comment:
        'platform/ and db/ are shared by every module and know none of them, nor the command-line ' +
        'entry points in cli/, which compose them as main.ts does (their tests may run the whole app).',
      from: { path: '^server/src/(platform|db)/', pathNot: '[.]test[.]ts$' },
      to: { path: '^server/src/(modules|cli)/' },
    },
    {
      name: 'db-stands-alone',
      severity: 'error',
      comment:
        'db/ (client, schema, migrations, PGlite) is the bottom layer: it imports nothing else of ' +
        'server/src. The seed and the command-line entry points, which need more, live in cli/.',
      from: { path: '^server/src/db/', pathNot: '[.]test[.]ts$' },
      to: { path: '^server/src/', pathNot: '^server/src/db/' },
    },
    {
      name: 'db-tests-through-harness',
      severity: 'error',
      comment: "db/'s tests may also use the test harness (server/src/test/), which runs the app.",
      from: { path: '^server/src/db/.+[.]test[.]ts$' },
      to: { path: '^server/src/', pathNot: '^server/src/(db|test)/' },
    },
    {
      name: 'contract-stands-alone',
      severity: 'error',
      comment: 'The contract is shared by server and web and imports neither.',
      from: { path: '^contract/' },
      to: { path: '^(server|web)/' },
    },
    {
      name: 'web-feature-internals',
      severity: 'error',
      comment:
        'A web feature never imports another feature: shared hooks and widgets live in lib/ and ' +
        'components/, and the app layer (app/) composes features.',
      from: { path: '^web/src/features/([^/]+)/' },
      to: { path: '^web/src/features/', pathNot: '^web/src/features/$1/' },
    },
    {
      name: 'web-shared-below-features',
      severity: 'error',
      comment: 'lib/ and components/ are used by features and know none of them.',
      from: { path: '^web/src/(lib|components)/' },
      to: { path: '^web/src/(features|app)/' },
    },
    {
      name: 'outside-through-test-support',
      severity: 'error',
      comment:
        'e2e/ and bench/ reach the server only through its test-support entry ' +
        '(server/src/test/support.ts), which names everything they use.',
      from: { path: '^(e2e|bench)/' },
      to: { path: '^server/', pathNot: '^server/src/test/support[.]ts$' },
    },
    {
      name: 'no-cycles',
      severity: 'error',
      comment: 'Files that import each other, directly or through others.',
      from: { path: '^((server|web|contract)/src|e2e|bench)/' },
      to: { circular: true, dependencyTypesNot: ['type-only'] },
    },
  ],
  options: {
    includeOnly: '^((server|web|contract)/src|e2e|bench)/',
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] },
  },
};
