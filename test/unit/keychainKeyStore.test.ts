import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';

// The OS keychain (Electron safeStorage) does not exist outside Electron: it is the one thing
// faked here, with a reversible "encryption" and a switchable backend.
const keychain = vi.hoisted(() => ({ available: true, backend: 'gnome_libsecret' }));
vi.mock('electron', () => ({
  safeStorage: {
    isEncryptionAvailable: () => keychain.available,
    getSelectedStorageBackend: () => keychain.backend,
    encryptString: (text: string) => Buffer.from(`enc:${[...text].reverse().join('')}`),
    decryptString: (data: Buffer) => [...data.toString().replace(/^enc:/, '')].reverse().join(''),
  },
}));

const { KeychainKeyStore } = await import('../../src/main/electron/keychainKeyStore');

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
  keychain.available = true;
  keychain.backend = 'gnome_libsecret';
});

function storeFile(): string {
  dir = mkdtempSync(join(tmpdir(), 'tandem-keys-'));
  return join(dir, 'share/tandem/api-keys.json');
}

describe('KeychainKeyStore', () => {
  it('keeps keys encrypted in a 0600 file and reads them back in a new run', async () => {
    const file = storeFile();
    expect(await new KeychainKeyStore(file).set('anthropic', 'sk-ant-secret-value')).toBe('keychain');
    const raw = readFileSync(file, 'utf8');
    expect(raw).not.toContain('sk-ant-secret-value');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(new KeychainKeyStore(file).get('anthropic')).toBe('sk-ant-secret-value');
    expect(new KeychainKeyStore(file).get('openai-compatible')).toBeUndefined();
  });

  it('an empty key removes the stored one', async () => {
    const file = storeFile();
    const store = new KeychainKeyStore(file);
    await store.set('anthropic', 'k1');
    await store.set('anthropic', '');
    expect(new KeychainKeyStore(file).get('anthropic')).toBeUndefined();
  });

  it('without a real keychain (Linux basic_text) keeps the key in memory only, never on disk', async () => {
    keychain.backend = 'basic_text';
    const file = storeFile();
    const store = new KeychainKeyStore(file);
    expect(await store.set('anthropic', 'sk-ant-memory-only')).toBe('memory');
    expect(store.get('anthropic')).toBe('sk-ant-memory-only');
    expect(() => readFileSync(file)).toThrow();
    expect(new KeychainKeyStore(file).get('anthropic')).toBeUndefined();
  });
});
