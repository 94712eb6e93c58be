import{a as e,b as r}from"./chunk-6MVLGV57.js";import"./chunk-S55BVBFN.js";import"./chunk-C2RC3QPW.js";export{e as TreeViewModule,r as createTreeViewServices};
