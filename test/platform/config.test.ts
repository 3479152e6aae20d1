import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { ConfigError, parseConfig } from '../../platform/config.ts';

function catchError(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('parseConfig', () => {
  it('when nothing is set, then the embedded defaults apply', () => {
    const config = parseConfig({});
    expect(config.PORT).toBe(8080);
    expect(config.dataDir).toBe(path.resolve('./data'));
    expect(config.embeddedTemporal).toBe(true);
    expect(config.temporalAddress).toBe('127.0.0.1:7233');
    expect(config.TEMPORAL_UI_PORT).toBe(8233);
    expect(config.baseUrl).toBe('http://127.0.0.1:8080');
  });

  it('when TEMPORAL_ADDRESS is set, then that cluster is used instead of a dev server', () => {
    const config = parseConfig({ TEMPORAL_ADDRESS: 'temporal.internal:7233', TEMPORAL_NAMESPACE: 'prod' });
    expect(config.embeddedTemporal).toBe(false);
    expect(config.temporalAddress).toBe('temporal.internal:7233');
    expect(config.TEMPORAL_NAMESPACE).toBe('prod');
  });

  it('when several values are bad, then one error lists every problem with what is accepted', () => {
    const attempt = () =>
      parseConfig({ PORT: 'eighty', LOG_LEVEL: 'loud', TEMPORAL_ADDRESS: 'no-port', NIGHTLY_SCREEN_TIMEZONE: 'Mars/Base' });
    const error = catchError(attempt);
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    expect(problems).toHaveLength(4);
    expect(problems.join('\n')).toMatch(/^PORT:/m);
    expect(problems.join('\n')).toMatch(/LOG_LEVEL:.*"info"/);
    expect(problems.join('\n')).toMatch(/TEMPORAL_ADDRESS: expected host:port/);
    expect(problems.join('\n')).toMatch(/NIGHTLY_SCREEN_TIMEZONE: expected an IANA time zone/);
  });

  it('when LAKE_MAINTENANCE_HOUR is not an hour of the day, then it is refused saying what is accepted; unset, it is 4', () => {
    expect(parseConfig({}).LAKE_MAINTENANCE_HOUR).toBe(4);
    expect(parseConfig({ LAKE_MAINTENANCE_HOUR: '23' }).LAKE_MAINTENANCE_HOUR).toBe(23);
    for (const bad of ['24', '-1', '3.5', 'dawn']) {
      const error = catchError(() => parseConfig({ LAKE_MAINTENANCE_HOUR: bad }));
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).problems).toEqual([expect.stringMatching(/^LAKE_MAINTENANCE_HOUR: /)]);
    }
  });

  it('when WORKER_NICE is not a nice value from 0 to 19, then it is refused saying what is accepted; unset, it is 10', () => {
    expect(parseConfig({}).WORKER_NICE).toBe(10);
    expect(parseConfig({ WORKER_NICE: '0' }).WORKER_NICE).toBe(0);
    expect(parseConfig({ WORKER_NICE: '19' }).WORKER_NICE).toBe(19);
    for (const bad of ['20', '-5', '2.5', 'low']) {
      const error = catchError(() => parseConfig({ WORKER_NICE: bad }));
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).problems).toEqual([
        expect.stringMatching(/^WORKER_NICE: expected a nice value, a whole number from 0/),
      ]);
    }
  });

  it('when a port is out of range, then it is refused', () => {
    expect(() => parseConfig({ PORT: '70000' })).toThrow(/PORT/);
  });

  it('when the webhook settings are unset, then only https public targets are accepted; set, they say what is wrong', () => {
    expect(parseConfig({})).toMatchObject({ WEBHOOK_ALLOW_HTTP: false, WEBHOOK_ALLOW_PRIVATE_TARGETS: false });
    expect(parseConfig({ WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE_TARGETS: '1' })).toMatchObject({
      WEBHOOK_ALLOW_HTTP: true,
      WEBHOOK_ALLOW_PRIVATE_TARGETS: true,
    });
    const error = catchError(() => parseConfig({ WEBHOOK_ALLOW_HTTP: 'yes', WEBHOOK_SECRET_KEY: 'abc' }));
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual([
      expect.stringMatching(/^WEBHOOK_SECRET_KEY: expected exactly 32 bytes as hex/),
      expect.stringMatching(/^WEBHOOK_ALLOW_HTTP: expected true or false/),
    ]);
  });

  it('when the delivery queue and slots are unset, then deliveries get a queue of their own beside the task queue and 32 slots; bad values say what is accepted', () => {
    expect(parseConfig({})).toMatchObject({ webhookTaskQueue: 'faithscreen-webhooks', WEBHOOK_DELIVERY_SLOTS: 32 });
    expect(parseConfig({}).WORKER_ACTIVITY_SLOTS).toBeUndefined();
    expect(parseConfig({ TEMPORAL_TASK_QUEUE: 'fs' }).webhookTaskQueue).toBe('fs-webhooks');
    expect(parseConfig({ WEBHOOK_TASK_QUEUE: 'hooks', WEBHOOK_DELIVERY_SLOTS: '8', WORKER_ACTIVITY_SLOTS: '3' })).toMatchObject({
      webhookTaskQueue: 'hooks',
      WEBHOOK_DELIVERY_SLOTS: 8,
      WORKER_ACTIVITY_SLOTS: 3,
    });
    const error = catchError(() => parseConfig({ WEBHOOK_DELIVERY_SLOTS: '0', WORKER_ACTIVITY_SLOTS: 'many' }));
    expect((error as ConfigError).problems).toEqual([
      expect.stringMatching(/^WEBHOOK_DELIVERY_SLOTS: /),
      expect.stringMatching(/^WORKER_ACTIVITY_SLOTS: /),
    ]);
  });

  it('when UPGRADE_URL is unset, then 403/429 bodies point at the account upgrade page of the public base URL', () => {
    expect(parseConfig({}).upgradeUrl).toBe('http://127.0.0.1:8080/account/upgrade');
    expect(parseConfig({ PUBLIC_BASE_URL: 'https://api.faithscreen.test/' }).upgradeUrl).toBe(
      'https://api.faithscreen.test/account/upgrade',
    );
    expect(parseConfig({ UPGRADE_URL: 'https://shop.test/plans' }).upgradeUrl).toBe('https://shop.test/plans');
  });

  it('when UPGRADE_CONTACT is longer than a line, then it is refused; set, it is kept trimmed', () => {
    expect(parseConfig({ UPGRADE_CONTACT: ' sales@faithscreen.test ' }).UPGRADE_CONTACT).toBe('sales@faithscreen.test');
    expect(parseConfig({}).UPGRADE_CONTACT).toBeUndefined();
    const error = catchError(() => parseConfig({ UPGRADE_CONTACT: 'x'.repeat(201) }));
    expect((error as ConfigError).problems).toEqual([expect.stringMatching(/^UPGRADE_CONTACT: /)]);
  });

  it('when values are empty strings, then they count as unset', () => {
    expect(parseConfig({ TEMPORAL_ADDRESS: '' }).embeddedTemporal).toBe(true);
  });
});
