import{a as o,b as e}from"./chunk-5QMISMWE.js";import"./chunk-NBH7YOBD.js";import"./chunk-PFHUZZCL.js";import"./chunk-IEZERDIC.js";import"./chunk-UM4GBDFF.js";import"./chunk-EXZCZFP2.js";import"./chunk-KABUEMFC.js";import"./chunk-NC7OTV2A.js";import"./chunk-6ZMWUUCD.js";import"./chunk-XVTLRHMN.js";import"./chunk-EP22NENM.js";import"./chunk-DUSMDXCD.js";import"./chunk-YORIST7Z.js";import"./chunk-C5WVE4JB.js";import"./chunk-HQG7NMIX.js";import"./chunk-PVAX6TB2.js";import"./chunk-4EWR3WQU.js";import"./chunk-TQL5HXQW.js";import"./chunk-KAPNXIR2.js";import{a as r}from"./chunk-EIBFAW37.js";import"./chunk-VOKRX46Q.js";import"./chunk-C2RC3QPW.js";var m=r(t=>`${o(t)}
  .swimlane.cluster rect {
    stroke: ${t.clusterBorder} !important;
  }
  [data-look="neo"].cluster rect {
    filter: none;
  }
`,"getStyles"),i=m,B=e({defaultLayout:"swimlane",styles:i});export{B as diagram};
