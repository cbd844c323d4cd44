import { describe, expect, it } from 'vitest';
import { unpackedPath } from '../../src/main/packaged/unpackedPath';

describe('unpackedPath', () => {
  it("points a file inside the app's asar at its unpacked copy", () => {
    expect(unpackedPath('/opt/Tandem/resources/app.asar/out/main/chunks/mirrorWorker-1.mjs')).toBe('/opt/Tandem/resources/app.asar.unpacked/out/main/chunks/mirrorWorker-1.mjs');
  });

  it('leaves other paths alone, including one merely named like the archive', () => {
    expect(unpackedPath('/work/main/out/main/chunks/mirrorWorker-1.mjs')).toBe('/work/main/out/main/chunks/mirrorWorker-1.mjs');
    expect(unpackedPath('/home/me/app.asar.backup/x.js')).toBe('/home/me/app.asar.backup/x.js');
    expect(unpackedPath('/opt/Tandem/resources/app.asar.unpacked/a.sh')).toBe('/opt/Tandem/resources/app.asar.unpacked/a.sh');
  });
});
