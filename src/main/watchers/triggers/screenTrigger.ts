/**
 * screen_change watchers are read and checked, but nothing watches a window yet: the poll
 * (X11 window by class or title, OCR when its pixels changed, every 5 s or more) is a later
 * step. The list and `tandem watchers test` say so with this sentence.
 */
export const SCREEN_CHANGE_NOT_BUILT = 'screen_change is not active yet in this version of Tandem (the file is checked; nothing is watched)';
