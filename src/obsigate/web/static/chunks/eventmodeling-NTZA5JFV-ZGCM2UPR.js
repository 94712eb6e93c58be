import{a as e,b as o}from"./chunk-RVOUJQ6V.js";import"./chunk-TFLEJWJ5.js";import"./chunk-C2RC3QPW.js";export{e as EventModelingModule,o as createEventModelingServices};
