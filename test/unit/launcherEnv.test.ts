import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cleanChildEnv } from '../../src/main/shell/childEnv';
import { withoutLauncherChanges } from '../../src/main/shell/launcherEnv';

type Env = Record<string, string>;

const APPDIR = '/tmp/.mount_TandemAb12Cd';
const HOME = '/home/ada';

/** What the type-2 AppImage runtime sets for the program inside. */
const RUNTIME = { APPDIR, APPIMAGE: `${HOME}/Apps/Tandem-0.1.0.AppImage`, ARGV0: './Tandem-0.1.0.AppImage', OWD: `${HOME}/Downloads` };

/** `${VAR:+:$VAR}` */
const colonThen = (value: string | undefined) => (value ? `:${value}` : '');

/** electron-builder 26's AppRun (app-builder-lib, targets/appimage/appImageUtil.js), started by the runtime. */
function electronBuilderAppImage(user: Env): Env {
  return {
    ...user,
    ...RUNTIME,
    PATH: `${APPDIR}:${APPDIR}/usr/sbin${colonThen(user.PATH)}`,
    XDG_DATA_DIRS: `${APPDIR}/usr/share/${colonThen(user.XDG_DATA_DIRS)}:/usr/share/gnome:/usr/local/share/:/usr/share/`,
    LD_LIBRARY_PATH: `${APPDIR}/usr/lib${colonThen(user.LD_LIBRARY_PATH)}`,
    GSETTINGS_SCHEMA_DIR: `${APPDIR}/usr/share/glib-2.0/schemas${colonThen(user.GSETTINGS_SCHEMA_DIR)}`,
  };
}

/** Older electron-builder (app-builder's AppRun template). */
function olderElectronBuilderAppImage(user: Env): Env {
  return {
    ...user,
    ...RUNTIME,
    PATH: `${APPDIR}:${APPDIR}/usr/sbin:${user.PATH ?? ''}`,
    XDG_DATA_DIRS: `./share/:/usr/share/gnome:/usr/local/share/:/usr/share/:${user.XDG_DATA_DIRS ?? ''}`,
    LD_LIBRARY_PATH: `${APPDIR}/usr/lib:${user.LD_LIBRARY_PATH ?? ''}`,
    GSETTINGS_SCHEMA_DIR: `${APPDIR}/usr/share/glib-2.0/schemas:${user.GSETTINGS_SCHEMA_DIR ?? ''}`,
  };
}

/** AppImageKit's AppRun.c (the classic compiled AppRun). */
function appImageKitAppRun(user: Env): Env {
  const inside = (...dirs: string[]) => dirs.map((dir) => `${APPDIR}/${dir}`).join(':');
  const qt = ['qt4', 'qt5'].flatMap((qt) => ['usr/lib', 'usr/lib/i386-linux-gnu', 'usr/lib/x86_64-linux-gnu', 'usr/lib32', 'usr/lib64'].map((lib) => `${lib}/${qt}/plugins/`));
  const libs = ['usr/lib/', 'usr/lib/i386-linux-gnu/', 'usr/lib/x86_64-linux-gnu/', 'usr/lib32/', 'usr/lib64/', 'lib/', 'lib/i386-linux-gnu/', 'lib/x86_64-linux-gnu/', 'lib32/', 'lib64/'];
  return {
    ...user,
    ...RUNTIME,
    PYTHONHOME: `${APPDIR}/usr/`,
    PATH: `${inside('usr/bin/', 'usr/sbin/', 'usr/games/', 'bin/', 'sbin/')}:${user.PATH ?? ''}`,
    LD_LIBRARY_PATH: `${inside(...libs)}:${user.LD_LIBRARY_PATH ?? ''}`,
    PYTHONPATH: `${APPDIR}/usr/share/pyshared/:${user.PYTHONPATH ?? ''}`,
    XDG_DATA_DIRS: `${APPDIR}/usr/share/:${user.XDG_DATA_DIRS ?? '/usr/local/share/:/usr/share/'}`,
    PERLLIB: `${inside('usr/share/perl5/', 'usr/lib/perl5/')}:${user.PERLLIB ?? ''}`,
    GSETTINGS_SCHEMA_DIR: `${APPDIR}/usr/share/glib-2.0/schemas/:${user.GSETTINGS_SCHEMA_DIR ?? ''}`,
    QT_PLUGIN_PATH: `${inside(...qt)}:${user.QT_PLUGIN_PATH ?? ''}`,
    // (sic: AppRun.c appends the old QT_PLUGIN_PATH here)
    GST_PLUGIN_SYSTEM_PATH: `${APPDIR}/usr/lib/gstreamer:${user.QT_PLUGIN_PATH ?? ''}`,
    GST_PLUGIN_SYSTEM_PATH_1_0: `${APPDIR}/usr/lib/gstreamer-1.0:${user.QT_PLUGIN_PATH ?? ''}`,
    PYTHONDONTWRITEBYTECODE: '1',
  };
}

/** Electron on Linux (Ubuntu's GNOME): XDG_CURRENT_DESKTOP becomes Unity, the old value is kept (String()ed). */
function electron(env: Env): Env {
  return { ...env, ORIGINAL_XDG_CURRENT_DESKTOP: String(env.XDG_CURRENT_DESKTOP), XDG_CURRENT_DESKTOP: 'Unity' };
}

/** Entries a user's lists hold, some of them close to (but not inside) the AppImage's directory. */
const entry = fc.oneof(
  fc.constantFrom('/usr/bin', '/bin', `${HOME}/.local/bin`, '/usr/share/gnome', '/usr/local/share/', '/usr/share/', './share/', '/var/lib/snapd/desktop', `${APPDIR}x/bin`, `${APPDIR}-old/lib`, '/tmp', 'bin', '.', '/opt/tool/lib'),
  fc.stringMatching(/^\/[a-z]{1,8}(\/[a-z]{1,8}){0,2}\/?$/),
);
const GNOME_DATA_DIRS = '/usr/share/gnome:/usr/local/share/:/usr/share/';
const list = fc.oneof(
  fc.array(entry, { minLength: 1, maxLength: 6 }).map((entries) => entries.join(':')),
  // What electron-builder's AppRun adds to XDG_DATA_DIRS may be the session's own as well (Debian's GNOME).
  fc.array(entry, { maxLength: 3 }).map((entries) => [...entries, GNOME_DATA_DIRS].join(':')),
  fc.array(entry, { maxLength: 3 }).map((entries) => ['./share/', GNOME_DATA_DIRS, ...entries].join(':')),
);
const userEnv = fc
  .record(
    {
      PATH: list,
      XDG_DATA_DIRS: list,
      LD_LIBRARY_PATH: list,
      GSETTINGS_SCHEMA_DIR: list,
      PYTHONPATH: list,
      PERLLIB: list,
      QT_PLUGIN_PATH: list,
      XDG_CURRENT_DESKTOP: fc.constantFrom('ubuntu:GNOME', 'KDE', 'GNOME', 'X-Cinnamon', ''),
    },
    { requiredKeys: [] },
  )
  .map((vars): Env => ({ HOME, USER: 'ada', LANG: 'en_GB.UTF-8', ...vars }));

const entriesInside = (env: Env, root: string) =>
  Object.entries(env).flatMap(([name, value]) => value.split(':').filter((item) => item === root || item.startsWith(`${root}/`)).map((item) => `${name}=${item}`));

describe('withoutLauncherChanges', () => {
  it('gives back the environment of the session an electron-builder AppImage was started from', () => {
    const user: Env = {
      HOME,
      PATH: `${HOME}/.local/bin:/usr/local/bin:/usr/bin:/bin`,
      XDG_DATA_DIRS: '/usr/share/ubuntu:/usr/share/gnome:/usr/local/share/:/usr/share/:/var/lib/snapd/desktop',
      XDG_CURRENT_DESKTOP: 'ubuntu:GNOME',
      LD_LIBRARY_PATH: '/opt/cuda/lib64',
    };
    const launched = electron(electronBuilderAppImage(user));
    expect(launched.PATH).toBe(`${APPDIR}:${APPDIR}/usr/sbin:${HOME}/.local/bin:/usr/local/bin:/usr/bin:/bin`);
    expect(withoutLauncherChanges(launched)).toEqual(user);
  });

  it('drops what the launcher created when the session had no such variable', () => {
    const user: Env = { HOME, PATH: '/usr/bin:/bin' };
    expect(withoutLauncherChanges(electron(electronBuilderAppImage(user)))).toEqual(user);
    expect(withoutLauncherChanges(olderElectronBuilderAppImage(user))).toEqual(user);
  });

  it('keeps the session order and its own empty entries', () => {
    const user: Env = { HOME, PATH: '/usr/bin::/bin', XDG_DATA_DIRS: '/usr/share/gnome:/usr/local/share/:/usr/share/' };
    expect(withoutLauncherChanges(electronBuilderAppImage(user))).toEqual(user);
  });

  it('undoes electron-builder AppImages and Electron exactly, for any session environment', () => {
    fc.assert(
      fc.property(userEnv, (user) => {
        expect(withoutLauncherChanges(electron(electronBuilderAppImage(user)))).toEqual(user);
        expect(withoutLauncherChanges(olderElectronBuilderAppImage(user))).toEqual(user);
      }),
    );
  });

  it("leaves nothing of AppImageKit's AppRun inside APPDIR, and the session's own entries in their order", () => {
    fc.assert(
      fc.property(userEnv, (user) => {
        const result = withoutLauncherChanges(appImageKitAppRun(user));
        expect(entriesInside(result, APPDIR)).toEqual([]);
        for (const name of ['APPDIR', 'APPIMAGE', 'ARGV0', 'OWD', 'PYTHONHOME']) expect(result).not.toHaveProperty(name);
        for (const name of ['PATH', 'LD_LIBRARY_PATH', 'PYTHONPATH', 'PERLLIB', 'GSETTINGS_SCHEMA_DIR', 'QT_PLUGIN_PATH']) {
          expect(result[name], name).toBe(user[name]);
        }
        // With none of its own, AppRun.c gives the XDG default (the same directories).
        expect(result.XDG_DATA_DIRS).toBe(user.XDG_DATA_DIRS ?? '/usr/local/share/:/usr/share/');
      }),
    );
  });

  it('removes entries inside APPDIR from any variable and keeps every other entry in order', () => {
    const names = fc.constantFrom('LD_LIBRARY_PATH', 'PYTHONPATH', 'GIO_EXTRA_MODULES', 'GTK_PATH', 'MY_TOOL_DIRS', 'GDK_PIXBUF_MODULE_FILE');
    const inside = fc.constantFrom(APPDIR, `${APPDIR}/`, `${APPDIR}/usr/lib`, `${APPDIR}/usr/lib/x86_64-linux-gnu/gio/modules/`);
    const mixed = fc.array(fc.oneof(entry.map((own) => ({ own })), inside.map((launcher) => ({ launcher }))), { minLength: 1, maxLength: 8 });
    fc.assert(
      fc.property(fc.dictionary(names, mixed), (vars) => {
        const launched: Env = { HOME, PATH: '/usr/bin:/bin', ...RUNTIME };
        for (const [name, items] of Object.entries(vars)) launched[name] = items.map((item) => ('own' in item ? item.own : item.launcher)).join(':');
        const result = withoutLauncherChanges(launched);
        expect(entriesInside(result, APPDIR)).toEqual([]);
        for (const [name, items] of Object.entries(vars)) {
          const own = items.flatMap((item) => ('own' in item ? [item.own] : []));
          if (own.length === 0) expect(result).not.toHaveProperty(name);
          else expect(result[name]).toBe(own.join(':'));
        }
      }),
    );
  });

  it('touches nothing without a plausible launcher', () => {
    // APPDIR alone is somebody's own variable.
    const own: Env = { HOME, APPDIR: '/opt/apps', PATH: '/opt/apps/bin:/usr/bin', ARGV0: 'x', OWD: '/srv' };
    expect(withoutLauncherChanges(own)).toEqual(own);
    // An APPDIR that holds the system's or the user's directories is not an AppImage's.
    for (const appDir of ['/', '/usr', '/home', HOME, 'relative/dir']) {
      const env: Env = { HOME, APPDIR: appDir, APPIMAGE: '/x.AppImage', PATH: `${HOME}/bin:/usr/bin:/bin` };
      expect(withoutLauncherChanges(env), appDir).toEqual(env);
    }
    const plain: Env = { HOME, PATH: '/usr/bin', XDG_DATA_DIRS: '/usr/share/gnome:/usr/local/share/:/usr/share/' };
    expect(withoutLauncherChanges(plain)).toEqual(plain);
  });

  it('handles an APPDIR given with a trailing slash (an extracted AppImage run in place)', () => {
    const appDir = `${HOME}/squashfs-root`;
    const env: Env = { HOME, APPDIR: `${appDir}/`, APPIMAGE: `${appDir}/AppRun`, PATH: `${appDir}:${appDir}/usr/sbin:/usr/bin`, LD_LIBRARY_PATH: `${appDir}/usr/lib` };
    expect(withoutLauncherChanges(env)).toEqual({ HOME, PATH: '/usr/bin' });
  });

  it('restores the desktop name Electron changed, or removes it if there was none', () => {
    expect(withoutLauncherChanges({ XDG_CURRENT_DESKTOP: 'Unity', ORIGINAL_XDG_CURRENT_DESKTOP: 'ubuntu:GNOME' })).toEqual({ XDG_CURRENT_DESKTOP: 'ubuntu:GNOME' });
    expect(withoutLauncherChanges({ XDG_CURRENT_DESKTOP: 'Unity', ORIGINAL_XDG_CURRENT_DESKTOP: 'undefined' })).toEqual({});
    // macOS and Windows: Electron stores "undefined" there too.
    expect(withoutLauncherChanges({ ORIGINAL_XDG_CURRENT_DESKTOP: 'undefined', PATH: '/usr/bin' })).toEqual({ PATH: '/usr/bin' });
    expect(withoutLauncherChanges({ XDG_CURRENT_DESKTOP: 'KDE' })).toEqual({ XDG_CURRENT_DESKTOP: 'KDE' });
  });

  it('takes out a snap: entries inside $SNAP and the SNAP variables', () => {
    const snap = '/snap/tandem/42';
    const env: Env = {
      HOME,
      SNAP: snap,
      SNAP_NAME: 'tandem',
      SNAP_REVISION: '42',
      SNAP_USER_DATA: `${HOME}/snap/tandem/42`,
      PATH: `${snap}/usr/sbin:${snap}/usr/bin:${snap}/sbin:${snap}/bin:/usr/local/bin:/usr/bin:/bin`,
      LD_LIBRARY_PATH: `${snap}/usr/lib/x86_64-linux-gnu`,
      XDG_DATA_DIRS: `${snap}/usr/share:/usr/share/ubuntu:/usr/share`,
    };
    expect(withoutLauncherChanges(env)).toEqual({ HOME, PATH: '/usr/local/bin:/usr/bin:/bin', XDG_DATA_DIRS: '/usr/share/ubuntu:/usr/share' });
    // SNAP pointing anywhere else is not a snap's.
    const other: Env = { HOME, SNAP: '/opt/snap', SNAP_NAME: 'x', PATH: '/opt/snap/bin' };
    expect(withoutLauncherChanges(other)).toEqual(other);
  });
});

describe('cleanChildEnv', () => {
  it("gives shells the session's environment, then a terminal's own variables", () => {
    const user: Env = { HOME, PATH: '/usr/bin:/bin', XDG_CURRENT_DESKTOP: 'ubuntu:GNOME', LANG: 'en_GB.UTF-8' };
    const env = cleanChildEnv(electron(electronBuilderAppImage(user)), { cwd: HOME, version: '1.2.3', platform: 'linux' });
    expect(env).toEqual({ ...user, TERM: 'xterm-256color', COLORTERM: 'truecolor', TERM_PROGRAM: 'Tandem', TERM_PROGRAM_VERSION: '1.2.3', PWD: HOME });
  });
});
