import{a as e,b as r}from"./chunk-KXFQTT5Z.js";import"./chunk-RO6JMGRR.js";import"./chunk-C2RC3QPW.js";export{e as TreeViewModule,r as createTreeViewServices};
