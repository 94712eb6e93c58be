import{a as e,b as r}from"./chunk-NPYPX35V.js";import"./chunk-TFLEJWJ5.js";import"./chunk-C2RC3QPW.js";export{e as ArchitectureModule,r as createArchitectureServices};
