import type { Browser } from 'playwright-core';

export declare const CHROMIUM_PATH: string;
export declare function hasChromium(): boolean;
export declare function launchBrowser(): Promise<Browser>;
