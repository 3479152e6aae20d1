import { catalogMeta } from './001-catalog-meta.ts';
import { lakeViews } from './002-lake-views.ts';
import { forensicColumns } from './003-forensic-columns.ts';
import { realDataColumns } from './004-real-data-columns.ts';
import { involvementColumns } from './005-involvement-columns.ts';
import { methodologyTexts } from './006-methodology-texts.ts';
import { domicileColumn } from './007-domicile-column.ts';
import type { Migration } from './migration.ts';

/** Every catalog migration, in version order. Append only: never edit a released migration. */
export const MIGRATIONS: readonly Migration[] = [
  catalogMeta,
  lakeViews,
  forensicColumns,
  realDataColumns,
  involvementColumns,
  methodologyTexts,
  domicileColumn,
];
