import { useState } from 'react';
import { adoptPastedToken } from '../transport/browserToken';
import { engine } from './engine';
import { useBannerStore } from './bannerStore';
import { useConnectionStore } from './connectionStore';

/** Failures after this many attempts get the "how to get back in" hint. */
const HINT_AFTER_FAILURES = 3;

function ConnectionBanner() {
  const status = useConnectionStore((state) => state.status);
  const failures = useConnectionStore((state) => state.failures);
  const detail = useConnectionStore((state) => state.detail);
  if (status === 'reconnecting') {
    const browserMode = window.tandemElectron === undefined;
    return (
      <div className="banner banner--error" data-testid="banner" data-kind="disconnected" role="alert">
        <span className="banner__message">Disconnected from the Tandem engine — reconnecting…</span>
        {failures >= HINT_AFTER_FAILURES && (
          <span className="banner__detail">
            {browserMode
              ? 'If the engine was restarted, open the address `tandem web` printed (it carries a new access token).'
              : detail}
          </span>
        )}
        <button type="button" onClick={() => engine().reconnectNow()}>
          Retry now
        </button>
      </div>
    );
  }
  if (status === 'refused') return <AccessRefusedBanner tokenMissing={detail === 'missing-token'} />;
  if (status === 'replaced') {
    return (
      <div className="banner banner--warning" data-testid="banner" data-kind="replaced" role="alert">
        <span className="banner__message">This session was opened in another tab or window.</span>
        <button type="button" onClick={() => engine().reconnectNow()}>
          Use it here
        </button>
      </div>
    );
  }
  return null;
}

/** Browser mode without a valid token: what to do, and a field to paste the address into. No retries. */
function AccessRefusedBanner({ tokenMissing }: { tokenMissing: boolean }) {
  const [invalid, setInvalid] = useState(false);
  return (
    <div className="banner banner--error" data-testid="banner" data-kind="refused" role="alert">
      <span className="banner__message">
        {tokenMissing
          ? 'This address needs the access token printed by `tandem web`.'
          : 'This page’s access token is not the one `tandem web` printed (was it restarted?).'}
      </span>
      <span className="banner__detail">
        Open the whole address it printed (“Tandem is running at http://127.0.0.1:…/?token=…”), or paste it here. Run `tandem web`
        again if that terminal is gone.
      </span>
      <form
        className="banner__form"
        onSubmit={(event) => {
          event.preventDefault();
          const field = new FormData(event.currentTarget).get('address');
          setInvalid(!adoptPastedToken(typeof field === 'string' ? field : ''));
        }}
      >
        <input
          name="address"
          aria-label="Address or access token printed by tandem web"
          placeholder="http://127.0.0.1:…/?token=…"
          aria-invalid={invalid || undefined}
          spellCheck={false}
          autoComplete="off"
        />
        <button type="submit">Open</button>
      </form>
    </div>
  );
}

export function Banners() {
  const banners = useBannerStore((state) => state.banners);
  const dismiss = useBannerStore((state) => state.dismiss);
  return (
    <div className="banners">
      <ConnectionBanner />
      {banners.map((banner) => (
        <div key={banner.key} className={`banner banner--${banner.level}`} data-testid="banner" data-kind={banner.key} role="status">
          <span className="banner__message">{banner.message}</span>
          {banner.detail && <span className="banner__detail">{banner.detail}</span>}
          {banner.action && (
            <button type="button" onClick={banner.action.run}>
              {banner.action.label}
            </button>
          )}
          {banner.dismissible && (
            <button type="button" className="banner__dismiss" aria-label="Dismiss" onClick={() => dismiss(banner.key)}>
              ×
            </button>
          )}
        </div>
      ))}
    </div>
  );
}
