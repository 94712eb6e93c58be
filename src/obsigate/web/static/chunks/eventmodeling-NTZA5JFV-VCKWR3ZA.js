import{a as e,b as o}from"./chunk-HARJ6KTM.js";import"./chunk-RO6JMGRR.js";import"./chunk-C2RC3QPW.js";export{e as EventModelingModule,o as createEventModelingServices};
