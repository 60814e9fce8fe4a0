// Types for the parts of `svgcanvas` (a canvas 2D context that records SVG) the SVG export uses;
// the package ships none.
declare module 'svgcanvas' {
  export class Context {
    constructor(options: { width: number; height: number; document?: Document });
    getSerializedSvg(fixNamedEntities?: boolean): string;
  }
}
