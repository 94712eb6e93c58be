import{a as e,b as r}from"./chunk-2X4447XX.js";import"./chunk-TFLEJWJ5.js";import"./chunk-C2RC3QPW.js";export{e as TreeViewModule,r as createTreeViewServices};
