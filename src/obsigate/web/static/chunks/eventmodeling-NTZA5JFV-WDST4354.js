import{a as e,b as o}from"./chunk-XQD6GM57.js";import"./chunk-S55BVBFN.js";import"./chunk-C2RC3QPW.js";export{e as EventModelingModule,o as createEventModelingServices};
