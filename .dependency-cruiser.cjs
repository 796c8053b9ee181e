// The layer picture of README's Architecture section, as rules: a file imports only from its
// own layer or those below it; no cycles; an adapter's internals (events/file|kafka,
// projections/memory|mongo) only from inside that adapter and from the wiring.
const LAYERS = [
  ['src/snapshots/', 'src/templates/', 'src/eventLoopTurns\\.ts$'],
  ['src/models/', 'src/events/', 'src/errors/', 'src/config\\.ts$'],
  ['src/projections/'],
  ['src/commands/'],
  ['src/auth/', 'src/audit/', 'src/migration/', 'src/branches/'],
  ['src/replicas/', 'src/webhooks/'],
  ['src/ledger/'],
  ['src/api/'],
  ['src/cli/', 'src/main\\.ts$'],
];
const pattern = (paths) => `^(${paths.join('|')})`;

const backArrows = LAYERS.flatMap((paths, rank) =>
  rank + 1 < LAYERS.length
    ? [
        {
          name: `layer-${rank}-up`,
          comment: `${paths.join(', ')} may not import from a layer above it (README: Architecture)`,
          severity: 'error',
          from: { path: pattern(paths) },
          to: { path: pattern(LAYERS.slice(rank + 1).flat()) },
        },
      ]
    : [],
);

const ADAPTERS = ['src/events/file/', 'src/events/kafka/', 'src/projections/memory/', 'src/projections/mongo/'];
const WIRING = ['src/ledger/', 'src/cli/', 'src/main\\.ts$'];
const adapterInternals = ADAPTERS.map((adapter) => ({
  name: `adapter-internals-${adapter.split('/').slice(-2, -1)[0]}`,
  comment: `${adapter} is an adapter: only it and the wiring (ledger/, cli/, main.ts) import its files`,
  severity: 'error',
  from: { path: '^src/', pathNot: pattern([adapter, ...WIRING]) },
  to: { path: `^${adapter}` },
}));

module.exports = {
  forbidden: [
    // No exception: the models' vocabulary (modelDefinition.ts and its parts) names the model
    // in its parts through modelCatalog.ts, not by importing modelDefinition.ts back.
    { name: 'no-circular', severity: 'error', from: {}, to: { circular: true } },
    ...backArrows,
    ...adapterInternals,
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
