/**
 * The import rules of the source tree (docs/development.md): layers import only
 * downward and no module takes part in a cycle. Checked by `npm run lint:imports`.
 */
// Bottom to top; a layer may import its own and any lower layer, never a higher one. The one list of
// source folders: scripts/lint-imports.mjs cruises the same folders and a test checks tsconfig.json against it.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- dependency-cruiser loads this file as CommonJS
const { layers: LAYERS, tooling: TOOLING } = require('./source-folders.json');

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
      to: { path: dirs(TOOLING) },
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
