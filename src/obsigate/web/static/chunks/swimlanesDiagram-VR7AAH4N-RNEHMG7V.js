import{a as o,b as e}from"./chunk-XEKLR26L.js";import"./chunk-BTOI4UFB.js";import"./chunk-SYKRJ2LQ.js";import"./chunk-NTO37OEZ.js";import"./chunk-WWSY66TF.js";import"./chunk-TD3EM5LF.js";import"./chunk-V2TZ2HWJ.js";import"./chunk-4ASVJYI7.js";import"./chunk-RZD35D6Y.js";import"./chunk-3UQ23IAR.js";import"./chunk-2KBM3S2M.js";import"./chunk-63FK4P7S.js";import"./chunk-IFGJ6LE3.js";import"./chunk-2GQ7O24Y.js";import"./chunk-SXUNE6L5.js";import"./chunk-CA6HMCXN.js";import"./chunk-AB7QKMPR.js";import"./chunk-TQ4DQXWA.js";import"./chunk-2A3PO542.js";import{a as r}from"./chunk-EGCKOLGR.js";import"./chunk-DS5D2C4Y.js";import"./chunk-C2RC3QPW.js";var m=r(t=>`${o(t)}
  .swimlane.cluster rect {
    stroke: ${t.clusterBorder} !important;
  }
  [data-look="neo"].cluster rect {
    filter: none;
  }
`,"getStyles"),i=m,B=e({defaultLayout:"swimlane",styles:i});export{B as diagram};
