import{a as o,b as e}from"./chunk-SLSA7BAC.js";import"./chunk-NBH7YOBD.js";import"./chunk-PFHUZZCL.js";import"./chunk-IEZERDIC.js";import"./chunk-UM4GBDFF.js";import"./chunk-EXZCZFP2.js";import"./chunk-GQDTEG2P.js";import"./chunk-3XLGM3VJ.js";import"./chunk-TTLFMO3V.js";import"./chunk-3RSOPEAV.js";import"./chunk-MZ42GOL5.js";import"./chunk-YORIST7Z.js";import"./chunk-DUSMDXCD.js";import"./chunk-C5WVE4JB.js";import"./chunk-HQG7NMIX.js";import"./chunk-PVAX6TB2.js";import"./chunk-4EWR3WQU.js";import"./chunk-TQL5HXQW.js";import"./chunk-KAPNXIR2.js";import{a as r}from"./chunk-EIBFAW37.js";import"./chunk-VOKRX46Q.js";import"./chunk-C2RC3QPW.js";var m=r(t=>`${o(t)}
  .swimlane.cluster rect {
    stroke: ${t.clusterBorder} !important;
  }
  [data-look="neo"].cluster rect {
    filter: none;
  }
`,"getStyles"),i=m,B=e({defaultLayout:"swimlane",styles:i});export{B as diagram};
