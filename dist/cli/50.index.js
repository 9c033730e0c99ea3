const id=50,ids=[50],modules={8050:(module=>{module.exports=eval("require")("kerberos")})};export{id,ids,modules};
