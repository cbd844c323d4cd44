/** macOS gets Cmd shortcuts; everything else Ctrl+Shift. Decided by the machine showing the UI. */
export const isMac: boolean = (() => {
  const bridge = window.tandemElectron;
  if (bridge) return bridge.platform === 'darwin';
  const uaPlatform = (navigator as Navigator & { userAgentData?: { platform?: string } }).userAgentData?.platform;
  return /mac/i.test(uaPlatform ?? navigator.platform ?? '');
})();
