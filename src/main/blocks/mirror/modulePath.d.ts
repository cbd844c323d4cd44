// electron-vite builds `./x?modulePath` imports as their own entry and gives their path
// at run time (vitest.config.ts does the same for tests).
declare module '*?modulePath' {
  const path: string;
  export default path;
}
