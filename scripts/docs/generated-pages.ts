/** The pages of docs/reference/ that are generated, each with the function that renders it. */
import { renderApiReference } from './api-reference.ts';
import { renderCliReference } from './cli-reference.ts';
import { renderConfigReference } from './config-reference.ts';

export interface GeneratedPage {
  /** Path from the repository root. */
  path: string;
  render: () => string;
}

export const GENERATED_PAGES: readonly GeneratedPage[] = [
  { path: 'docs/reference/cli.md', render: renderCliReference },
  { path: 'docs/reference/configuration.md', render: renderConfigReference },
  { path: 'docs/reference/api.md', render: renderApiReference },
];
