import { describe, expect, it } from 'vitest';
import { mayConnect, mayUsePermission, ownPageMatcher } from '../../src/main/electron/senderCheck';

const isOwnPage = ownPageMatcher('file:///opt/Tandem/resources/app.asar/out/renderer/index.html');
const good = {
  fromOurWindow: true,
  fromMainFrame: true,
  frameUrl: 'file:///opt/Tandem/resources/app.asar/out/renderer/index.html#x',
  argumentCount: 0,
};

describe('Electron sender check', () => {
  it('accepts our window, main frame, our page', () => {
    expect(mayConnect(good, isOwnPage)).toBe(true);
    expect(isOwnPage('file:///opt/Tandem/resources/app.asar/out/renderer/index.html?a=1')).toBe(true);
  });

  it('refuses other windows, iframes, other pages and handshakes with arguments', () => {
    expect(mayConnect({ ...good, fromOurWindow: false }, isOwnPage)).toBe(false);
    expect(mayConnect({ ...good, fromMainFrame: false }, isOwnPage)).toBe(false);
    expect(mayConnect({ ...good, argumentCount: 1 }, isOwnPage)).toBe(false);
    for (const url of [
      'file:///tmp/evil.html',
      'file:///opt/Tandem/resources/app.asar/out/renderer/index.html.evil',
      'https://example.com/opt/Tandem/resources/app.asar/out/renderer/index.html',
      'file://remotehost/opt/Tandem/resources/app.asar/out/renderer/index.html',
      'not a url',
      '',
    ]) {
      expect(mayConnect({ ...good, frameUrl: url }, isOwnPage)).toBe(false);
    }
  });

  it('matches a dev-server page by origin and path', () => {
    const dev = ownPageMatcher('http://localhost:5173/');
    expect(dev('http://localhost:5173/')).toBe(true);
    expect(dev('http://localhost:5174/')).toBe(false);
    expect(dev('http://evil.localhost:5173/')).toBe(false);
  });

  describe('permissions', () => {
    const page = 'file:///opt/Tandem/resources/app.asar/out/renderer/index.html';
    const ask = (permission: string, more: { mediaTypes?: string[]; isMainFrame?: boolean; requestingUrl?: string } = {}) =>
      mayUsePermission({ permission, isMainFrame: true, requestingUrl: page, ...more }, isOwnPage);

    it('grants the microphone alone to our page for push-to-talk', () => {
      expect(ask('media', { mediaTypes: ['audio'] })).toBe(true);
    });

    it('never grants the camera, a media ask that does not say what it wants, or anything to other frames and pages', () => {
      expect(ask('media', { mediaTypes: ['audio', 'video'] })).toBe(false);
      expect(ask('media', { mediaTypes: ['video'] })).toBe(false);
      expect(ask('media', { mediaTypes: ['unknown'] })).toBe(false);
      expect(ask('media', { mediaTypes: [] })).toBe(false);
      expect(ask('media')).toBe(false);
      expect(ask('media', { mediaTypes: ['audio'], isMainFrame: false })).toBe(false);
      expect(ask('media', { mediaTypes: ['audio'], requestingUrl: 'https://example.com/' })).toBe(false);
      expect(ask('media', { mediaTypes: ['audio'], requestingUrl: undefined })).toBe(false);
    });

    it('keeps the clipboard and refuses the rest', () => {
      expect(ask('clipboard-read')).toBe(true);
      expect(ask('clipboard-sanitized-write', { isMainFrame: false })).toBe(false);
      for (const permission of ['display-capture', 'notifications', 'geolocation', 'openExternal', 'mediaKeySystem']) {
        expect(ask(permission, { mediaTypes: ['audio'] }), permission).toBe(false);
      }
    });
  });
});
