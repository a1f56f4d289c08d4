import { generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parsePrivateKey } from '@crcs/tlog';
import { AppConfig } from './config';

const KEY_FILE = 'checkpoint-signing-key.pem';

/**
 * With no configuration at all the log is still signed, so an auditor can verify an export against
 * a key from the first day: the embedded default keeps an Ed25519 key of its own beside its data,
 * made at the first start (readable by the service's user only) and reused after. A deployment
 * with DATABASE_URL chooses its own key and where to keep it, away from the database's reach.
 */
export function withEmbeddedSigningKey(config: AppConfig): AppConfig {
  if (config.databaseUrl || config.checkpointSigningKey) return config;
  const path = join(config.dataDir, KEY_FILE);
  if (!existsSync(path)) {
    mkdirSync(config.dataDir, { recursive: true });
    const { privateKey } = generateKeyPairSync('ed25519');
    writeFileSync(path, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600, flag: 'wx' });
  }
  return new AppConfig({
    ...config,
    checkpointSigningKey: parsePrivateKey(readFileSync(path, 'utf8')),
  });
}
