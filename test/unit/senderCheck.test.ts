import { describe, expect, it } from 'vitest';
import { mayConnect, ownPageMatcher } from '../../src/main/electron/senderCheck';

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
});
