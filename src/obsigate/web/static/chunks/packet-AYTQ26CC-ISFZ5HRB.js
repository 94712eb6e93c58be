import{a as e,b as r}from"./chunk-D6NKGXD7.js";import"./chunk-TFLEJWJ5.js";import"./chunk-C2RC3QPW.js";export{e as PacketModule,r as createPacketServices};
