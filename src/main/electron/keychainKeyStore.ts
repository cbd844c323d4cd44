import { mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { safeStorage } from 'electron';
import type { ApiKeyStore, BackendKind } from '../agent/modelConnection';
import { writeFileAtomic } from '../settings/atomicWrite';

/**
 * API keys encrypted with the OS keychain (Electron safeStorage: Keychain on macOS, DPAPI on
 * Windows, libsecret/kwallet on Linux) in a 0600 file in the data dir. Without a usable
 * keychain (Linux "basic_text" backend) keys are kept in memory for this run only, never
 * written in plain text.
 */
export class KeychainKeyStore implements ApiKeyStore {
  private readonly memory = new Map<BackendKind, string>();

  constructor(private readonly file: string) {}

  get(backend: BackendKind): string | undefined {
    const remembered = this.memory.get(backend);
    if (remembered !== undefined) return remembered || undefined;
    if (!this.keychainUsable()) return undefined;
    try {
      const stored = JSON.parse(readFileSync(this.file, 'utf8')) as Partial<Record<BackendKind, string>>;
      const encrypted = stored[backend];
      return encrypted ? safeStorage.decryptString(Buffer.from(encrypted, 'base64')) : undefined;
    } catch {
      return undefined;
    }
  }

  set(backend: BackendKind, key: string): Promise<'keychain' | 'memory'> {
    this.memory.set(backend, key);
    if (!this.keychainUsable()) return Promise.resolve('memory');
    let stored: Partial<Record<BackendKind, string>> = {};
    try {
      stored = JSON.parse(readFileSync(this.file, 'utf8')) as typeof stored;
    } catch {
      // No file yet, or an unreadable one: start afresh.
    }
    if (key) stored[backend] = safeStorage.encryptString(key).toString('base64');
    else delete stored[backend];
    mkdirSync(dirname(this.file), { recursive: true, mode: 0o700 });
    writeFileAtomic(this.file, JSON.stringify(stored), 0o600);
    return Promise.resolve('keychain');
  }

  private keychainUsable(): boolean {
    return safeStorage.isEncryptionAvailable() && (process.platform !== 'linux' || safeStorage.getSelectedStorageBackend() !== 'basic_text');
  }
}
