import { ACCESS_MIGRATION } from './migrations/001-access.ts';
import { ATTESTATIONS_MIGRATION } from './migrations/002-attestations.ts';
import { WEBHOOKS_MIGRATION } from './migrations/003-webhooks.ts';
import { ACCOUNT_USERS_MIGRATION } from './migrations/004-account-users.ts';
import { KEY_USAGE_DAYS_MIGRATION } from './migrations/005-key-usage-days.ts';
import { ACCOUNT_QUOTA_WINDOWS_MIGRATION } from './migrations/006-account-quota-windows.ts';
import { CUSTOM_SCREENS_MIGRATION } from './migrations/007-custom-screens.ts';
import { ACCOUNT_PAGE_USAGE_DAYS_MIGRATION } from './migrations/008-account-page-usage-days.ts';
import type { ServiceMigration } from './migrations/migration.ts';

/** Every migration this build knows. Add new ones with the next version number; never edit an applied one. */
export const SERVICE_MIGRATIONS: readonly ServiceMigration[] = [
  ACCESS_MIGRATION,
  ATTESTATIONS_MIGRATION,
  WEBHOOKS_MIGRATION,
  ACCOUNT_USERS_MIGRATION,
  KEY_USAGE_DAYS_MIGRATION,
  ACCOUNT_QUOTA_WINDOWS_MIGRATION,
  CUSTOM_SCREENS_MIGRATION,
  ACCOUNT_PAGE_USAGE_DAYS_MIGRATION,
];
