import { create } from 'zustand';

export interface Banner {
  /** Stable key: showing a banner with the same key replaces the old one. */
  key: string;
  level: 'info' | 'warning' | 'error';
  message: string;
  detail?: string;
  dismissible: boolean;
  action?: { label: string; run: () => void };
}

interface BannerState {
  banners: Banner[];
  show(banner: Banner): void;
  dismiss(key: string): void;
}

export const useBannerStore = create<BannerState>()((set) => ({
  banners: [],
  show: (banner) =>
    set((state) => ({ banners: [...state.banners.filter((existing) => existing.key !== banner.key), banner] })),
  dismiss: (key) =>
    set((state) =>
      state.banners.some((banner) => banner.key === key)
        ? { banners: state.banners.filter((banner) => banner.key !== key) }
        : state,
    ),
}));
