/**
 * The import rules of the source tree (README, "Tests, lint, benchmarks"): layers import only
 * downward and no module takes part in a cycle. Checked by `npm run lint:imports`.
 */
// Bottom to top; a layer may import its own and any lower layer, never a higher one.
const LAYERS = [
  ['engine', 'forensic', 'common'],
  ['service-state'],
  ['warehouse'],
  ['sources'],
  ['access', 'attest', 'webhooks'],
  ['activities'],
  ['workflows'],
  ['api'],
  ['platform'],
  ['cli'],
];

const dirs = (names) => `^(${names.join('|')})/`;

const upward = LAYERS.slice(0, -1).map((layer, level) => ({
  name: `no-upward-from-${layer.join('-')}`,
  comment: `${layer.join(', ')} must not import a layer above it`,
  severity: 'error',
  from: { path: dirs(layer) },
  to: { path: dirs(LAYERS.slice(level + 1).flat()) },
}));

module.exports = {
  forbidden: [
    { name: 'no-circular', comment: 'a cycle makes two modules one', severity: 'error', from: {}, to: { circular: true } },
    ...upward,
    {
      name: 'no-test-code-in-the-product',
      severity: 'error',
      from: { path: dirs(LAYERS.flat()) },
      to: { path: '^(test|bench|scripts)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|scratch|data)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.mjs', '.js'] },
  },
};
