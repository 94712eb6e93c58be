import{a as e,b as r}from"./chunk-VR6ZBCXM.js";import"./chunk-RO6JMGRR.js";import"./chunk-C2RC3QPW.js";export{e as WardleyModule,r as createWardleyServices};
