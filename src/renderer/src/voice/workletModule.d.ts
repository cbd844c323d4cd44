/** Vite builds `./x.ts?worker&url` as a script of its own and gives its URL (an AudioWorklet module here). */
declare module '*?worker&url' {
  const url: string;
  export default url;
}
